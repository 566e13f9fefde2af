/** The auth feature's public surface: other features and the shell import from here. */
export {
  useSession,
  useActing,
  useMay,
  sessionQueryKey,
  sessionQueryOptions,
  switchedAccount,
  toAccount,
  type Account,
  type Profile,
  type PayoutMethod,
  type Role,
} from './api/get-session';
export { useSignOut } from './api/sign-out';
export { refreshSession } from './api/refresh-session';
export { RequireAuth } from './components/require-auth';
export { SignOutButton } from './components/sign-out-button';
export { GetStartedLink } from './components/get-started-link';
export { useUpdateProfile, type ProfileChanges } from './api/profile';
export { Avatar } from './components/avatar';
export { AuthCodeField } from './components/auth-fields';
export { MIN_PASSWORD_LENGTH } from './lib/validation';
export { useResendVerification } from './api/recovery';
export { ReauthenticateDialog } from './components/reauthenticate-dialog';
export { REAUTHENTICATION_REQUIRED } from './api/reauthenticate';
