/**
 * The flow inspector never holds a secret (docs/contract/console.md §9): every parameter named like
 * one (`client_secret`, `code`, `code_verifier`, tokens, passwords; `isSecretParam`) is masked in a
 * step before it is stored, and again when a step is read, so that steps recorded by an older
 * console are shown masked too. Masking is idempotent: a masked value is never masked twice.
 */
import type { FlowStepDetail } from '../../api/oauth-types.js';
import { isSecretParam, maskSecret, maskSecretParams } from '../secrets.js';

export function maskStep<T extends { summary: string; detail: FlowStepDetail }>(step: T): T {
  return { ...step, summary: maskSecretParams(step.summary), detail: maskDetail(step.detail) };
}

function maskDetail(detail: FlowStepDetail): FlowStepDetail {
  switch (detail.kind) {
    case 'authorize':
    case 'token':
      return { ...detail, params: maskParams(detail.params) };
    case 'navigation':
      return { ...detail, url: maskSecretParams(detail.url) };
    case 'callback':
      return { ...detail, url: maskSecretParams(detail.url), ...(detail.code !== undefined ? { code: maskSecret(detail.code) } : {}) };
    case 'redirect':
      return { ...detail, location: maskSecretParams(detail.location), ...(detail.code !== undefined ? { code: maskSecret(detail.code) } : {}) };
    default:
      return detail;
  }
}

function maskParams(params: Record<string, string[]>): Record<string, string[]> {
  // Own entries only, into a Map: a parameter named `__proto__` is a parameter like any other.
  const masked = new Map<string, string[]>();
  for (const [name, values] of Object.entries(params)) masked.set(name, isSecretParam(name) ? values.map(maskSecret) : values);
  return Object.fromEntries(masked);
}
