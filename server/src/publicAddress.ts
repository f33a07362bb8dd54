/**
 * The address other processes and clients reach this process's rooms at (config
 * PUBLIC_ADDRESS, Colyseus publicAddress). One ending in `:0` names the port this process binds,
 * known only once it listens: with PORT=0 the system picks the port at the bind itself, so no
 * other process can take it between a check and the bind (the test harness's race, issue 29).
 * Colyseus reads its publicAddress once, when the server object is built; a deferred address is
 * then set by each room on its own listing instead (GameRoom.advertise).
 */
export class PublicAddress {
  /** whether the address waits for the bound port */
  readonly deferred: boolean;
  /** the address, once known (undefined: none configured) */
  readonly value: Promise<string | undefined>;
  private settle: (address: string | undefined) => void = () => undefined;

  constructor(private readonly configured: string | undefined) {
    this.deferred = configured !== undefined && /:0$/.test(configured);
    this.value = this.deferred ? new Promise((resolve) => (this.settle = resolve)) : Promise.resolve(configured);
  }

  /** What Colyseus is given at construction: the address when it is already known. */
  get forColyseus(): string | undefined {
    return this.deferred ? undefined : this.configured;
  }

  /** The server bound `port`: a deferred address names it from now on. */
  bound(port: number): void {
    if (this.deferred) this.settle(this.configured!.replace(/:0$/, `:${port}`));
  }
}
