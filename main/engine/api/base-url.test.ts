/** Why a base URL is no URL, said where the reason is a common one (outsider: a port past 65535). */
import { describe, expect, it } from 'vitest';
import { unparsedUrlWhy } from './base-url.js';

describe('unparsedUrlWhy', () => {
  it.each([
    ['http://127.0.0.1:99999/q/', ' (its port 99999 is past 65535)'],
    ['https://example.com:70000', ' (its port 70000 is past 65535)'],
    ['127.0.0.1:8080/q/', ' (it has no scheme: start it with http:// or https://)'],
    ['queues/1', ' (it has no scheme: start it with http:// or https://)'],
    ['http://exa mple.com/q/', ' (it holds a space: write it as %20)'],
    ['http://[::1/q/', ''],
  ])('%s: %s', (raw, why) => {
    expect(() => new URL(raw)).toThrow();
    expect(unparsedUrlWhy(raw)).toBe(why);
  });
});
