import { perDatabase, type Db } from "./pool.js";
import { SharedReading } from "./sharedReading.js";

/**
 * The world's order by networth, read once and shared by every rank and target-list page a
 * process answers for a moment (issue 29, docs/architecture.md "The rank board").
 *
 * A rank is "1 + how many countries are above": counted in SQL per request, that walks every
 * country above (the heap too: countries change all the time, so an index-only count never
 * sees all-visible pages), and a target-list page with its total walks the whole table and the
 * index up to the page. Each costs O(countries) per request: 1.7-5 ms of Postgres at 2,000
 * countries, and five times that at 10,000, where the surroundings of every player playing
 * are read every couple of minutes. The board reads the order once (one statement, ids and
 * networth only), keeps it for `maxAgeMs`, and answers a rank with a binary search and a page
 * with a slice: O(log countries) and O(page) per request, one O(countries) read per process
 * per `maxAgeMs` whatever the number of requests.
 *
 * What a reader sees: its own country's networth is read fresh with its row, so the player's
 * own actions move their rank at once; the other countries are where they stood at most
 * `maxAgeMs` ago (the live rankings feed of the world room runs at the same once-a-second
 * cadence). A page lists the countries the board put there, each read fresh and ordered by its
 * fresh networth; a country registered since the board was read appears on the next reading.
 * `maxAgeMs` 0 reads the board again for every caller (exact, the old cost).
 */

/** The board of a database, one per process (and per database: tests run several); `current(maxAgeMs)` gives a snapshot. */
export const rankBoardOf = perDatabase((db) => new SharedReading(() => readSnapshot(db)));

interface BoardRow {
  id: number;
  networth: number;
  is_ai: boolean;
  ranked: boolean;
}

/** Every country's place, in the rankings' order: networth descending, ties by id ascending. */
export const RANK_BOARD_SQL = `SELECT id, networth, is_ai, (networth > 0 AND NOT is_eliminated) AS ranked
     FROM countries ORDER BY networth DESC, id ASC`;

/** Reads the board (exported for its tests). */
export async function readSnapshot(db: Db): Promise<RankSnapshot> {
  const { rows } = await db.query<BoardRow>({ name: "rank_board", text: RANK_BOARD_SQL });
  return new RankSnapshot(rows);
}

/** Countries in rank order, as parallel arrays for a binary search. */
class Ladder {
  readonly networth: number[] = [];
  readonly ids: number[] = [];

  add(row: BoardRow): void {
    this.networth.push(row.networth);
    this.ids.push(row.id);
  }

  /** How many countries of the ladder rank above a country at (networth, id). */
  countAbove(networth: number, id: number): number {
    let low = 0;
    let high = this.ids.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const above = this.networth[mid]! > networth || (this.networth[mid] === networth && this.ids[mid]! < id);
      if (above) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** One reading of the board. */
export class RankSnapshot {
  /** every country, in rank order (the target list, GET /countries) */
  private readonly listedIds: readonly number[];
  /** the AI countries, in rank order (GET /countries/ai) */
  private readonly listedAiIds: readonly number[];
  private readonly ranked = new Ladder();
  private readonly rankedPlayers = new Ladder();
  private readonly entries = new Map<number, BoardRow>();

  constructor(rows: readonly BoardRow[]) {
    const listed: number[] = [];
    const listedAi: number[] = [];
    for (const row of rows) {
      this.entries.set(row.id, row);
      listed.push(row.id);
      if (row.is_ai) listedAi.push(row.id);
      if (!row.ranked) continue;
      this.ranked.add(row);
      if (!row.is_ai) this.rankedPlayers.add(row);
    }
    this.listedIds = listed;
    this.listedAiIds = listedAi;
  }

  /**
   * The rank of a ranked country whose networth is `networth` now: 1 + the countries of the
   * board above it, not counting its own (older) entry when that one is above it.
   */
  rankOf(id: number, networth: number, playersOnly = false): number {
    const ladder = playersOnly ? this.rankedPlayers : this.ranked;
    const own = this.entries.get(id);
    const ownEntryAbove = own !== undefined && own.ranked && !(playersOnly && own.is_ai) && own.networth > networth;
    return 1 + ladder.countAbove(networth, id) - (ownEntryAbove ? 1 : 0);
  }

  /** The ids of a target-list page and how many the list holds. */
  page(offset: number, limit: number, aiOnly = false): { ids: number[]; total: number } {
    const list = aiOnly ? this.listedAiIds : this.listedIds;
    return { ids: list.slice(offset, offset + limit), total: list.length };
  }
}
