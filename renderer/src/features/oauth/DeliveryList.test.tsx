// @vitest-environment happy-dom
/**
 * The tries are kept in memory: after a restart the list is empty beside a subscription's sequence
 * id of 5. It must not then say that nothing was delivered (audit).
 */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { DeliveryList } from './IntegrationEvents';

afterEach(cleanup);

const nothing = async () => ({ ok: false as const, error: { code: 'not_found' as const, message: 'none' } });

describe('an integration’s deliveries with no try listed', () => {
  it('says none were made when no subscription has made an event', () => {
    renderOverFakeEngine(<DeliveryList deliveries={[]} />, nothing);
    expect(screen.getByText(/^No deliveries yet/)).toBeTruthy();
  });

  it('says the list starts with the console when a subscription has made events before', () => {
    renderOverFakeEngine(<DeliveryList deliveries={[]} sentBefore />, nothing);
    expect(screen.queryByText(/^No deliveries yet/)).toBeNull();
    expect(screen.getByText(/No tries since the console started: this list is kept in memory/)).toBeTruthy();
  });
});
