/**
 * Which partitions a subscription has paused (Subscription.pause / resume), shared by both buses: "all" covers
 * partitions assigned later too, with single partitions resumed out of it; otherwise a set of paused partitions.
 * The same rules as kafkajs's subscription state, kept on our side so a restarted consumer gets them again.
 */
export class PauseState {
  private all = false;
  /** paused partitions (when not all) */
  private readonly paused = new Set<number>();
  /** partitions resumed out of "all" */
  private readonly resumed = new Set<number>();

  pause(partitions?: number[]): void {
    if (!partitions) {
      this.all = true;
      this.paused.clear();
      this.resumed.clear();
    } else if (this.all) for (const p of partitions) this.resumed.delete(p);
    else for (const p of partitions) this.paused.add(p);
  }

  resume(partitions?: number[]): void {
    if (!partitions) {
      this.all = false;
      this.paused.clear();
      this.resumed.clear();
    } else if (this.all) for (const p of partitions) this.resumed.add(p);
    else for (const p of partitions) this.paused.delete(p);
  }

  isPaused(partition: number): boolean {
    return this.all ? !this.resumed.has(partition) : this.paused.has(partition);
  }

  /** The state as kafkajs calls: everything resumed first, then these pauses, then these resumes. */
  asCalls(): { pauseAll: boolean; pause: number[]; resume: number[] } {
    return { pauseAll: this.all, pause: this.all ? [] : [...this.paused], resume: this.all ? [...this.resumed] : [] };
  }
}
