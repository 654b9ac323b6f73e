/** The login service's paths (docs/contract/platform.md §4.1) and the sample integration's callback on the console. */
export const AUTHORIZE_PATH = '/login/v3/oauth';
export const SIGN_IN_PATH = '/login/v3/oauth/login';
export const CONSENT_PATH = '/login/v3/oauth/consent';
export { TOKEN_PATH } from '../api/oauth-types.js';
export const SAMPLE_CALLBACK_PATH = '/oauth/callback';
export const CAPTURED_PATH = '/login/v3/oauth/captured';
