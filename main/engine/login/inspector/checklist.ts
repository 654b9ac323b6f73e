/**
 * A checklist of what a request was validated against, in order, for the flow inspector: each
 * check passed, failed (with why), or was not reached because an earlier one failed.
 */
import type { FlowCheck } from '../../api/oauth-types.js';

export class Checklist<Id extends string> {
  private readonly checks: FlowCheck[];

  constructor(labels: Partial<Record<Id, string>>) {
    this.checks = Object.entries(labels as Record<string, string>).map(([id, label]) => ({ id, label, ok: null }));
  }

  pass(id: Id, detail?: string): void {
    this.set(id, true, detail);
  }

  fail(id: Id, detail: string): void {
    this.set(id, false, detail);
  }

  /** Drops a check that does not apply to this request (e.g. PKCE when none was sent). */
  skip(id: Id, detail: string): void {
    this.set(id, null, detail);
  }

  get failed(): FlowCheck | undefined {
    return this.checks.find((check) => check.ok === false);
  }

  list(): FlowCheck[] {
    return this.checks.map((check) => ({ ...check }));
  }

  private set(id: Id, ok: boolean | null, detail: string | undefined): void {
    const check = this.checks.find((c) => c.id === id);
    if (!check) return;
    check.ok = ok;
    if (detail === undefined) delete check.detail;
    else check.detail = detail;
  }
}
