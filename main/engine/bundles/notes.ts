/** A bundle's notes: each said once, and not too many of them. */
export class Notes {
  private readonly said = new Set<string>();
  private dropped = 0;

  add(note: string): void {
    if (this.said.has(note)) return;
    if (this.said.size >= 50) this.dropped++;
    else this.said.add(note);
  }

  list(): string[] {
    return this.dropped ? [...this.said, `and ${this.dropped} more notes`] : [...this.said];
  }
}
