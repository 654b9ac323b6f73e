import { describe, expect, it } from 'vitest';
import { summaryAfterKind } from './step-summary';

describe('a flow step’s summary beside its kind', () => {
  it('does not repeat the kind', () => {
    expect(summaryAfterKind('api_call', 'API call POST /api/v1/households → 200')).toBe(
      'POST /api/v1/households → 200',
    );
    expect(summaryAfterKind('sample', 'sample: exchanged the code (200)')).toBe('exchanged the code (200)');
    expect(summaryAfterKind('consent', 'consent: demo pressed Allow')).toBe('demo pressed Allow');
    expect(summaryAfterKind('navigation', 'window load: http://127.0.0.1:9/cb')).toBe('load: http://127.0.0.1:9/cb');
  });

  it('leaves other summaries, and the kinds that do not open with their name, as they are', () => {
    expect(summaryAfterKind('token', 'token request: authorization_code → 200')).toBe(
      'token request: authorization_code → 200',
    );
    expect(summaryAfterKind('login', 'signed in as demo')).toBe('signed in as demo');
    expect(summaryAfterKind('api_call', 'API call')).toBe('API call');
  });
});
