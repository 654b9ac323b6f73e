// @vitest-environment happy-dom
/** A refresh grace out of range says what it takes beside the field, not by its colour alone (audit-ui W12). */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { IntegrationView } from '@engine-api/oauth-types';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { RefreshGrace } from './IntegrationCard';

afterEach(cleanup);

const nothing = async () => ({ ok: false as const, error: { code: 'not_found' as const, message: 'none' } });
const integration = { id: 'sample', refreshGraceSec: 30, rotateRefreshTokens: true } as IntegrationView;

describe('the refresh grace field', () => {
  it('says its range beside the field once a value is out of it, and nothing while in it', () => {
    renderOverFakeEngine(<RefreshGrace integration={integration} />, nothing);
    const field = screen.getByRole('spinbutton');
    expect(screen.queryByText(/whole seconds from 0 to/)).toBeNull();
    fireEvent.change(field, { target: { value: '99999' } });
    const said = screen.getByText(/^whole seconds from 0 to [\d,]+$/);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(said.id);
    fireEvent.change(field, { target: { value: '45' } });
    expect(screen.queryByText(/whole seconds from 0 to/)).toBeNull();
  });
});
