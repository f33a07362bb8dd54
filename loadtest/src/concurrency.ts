/**
 * Runs `task` over `items` with at most `limit` running at once; results keep input order.
 * A rejected task rejects nothing else: its error is returned in place of a result.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<Array<R | Error>> {
  const results = new Array<R | Error>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index]!, index);
      } catch (err) {
        results[index] = err instanceof Error ? err : new Error(String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
