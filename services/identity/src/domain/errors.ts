import { AppError } from '@lockdrop/http';

/** Identity's failures with stable codes; texts are the spec's (§5, §8) where it has them. */
export const authErrors = {
  missingFields: () => new AppError('missing_fields', 400, 'Please fill in all fields'),
  nameTooLong: () =>
    new AppError('name_too_long', 400, 'Please keep your name under 100 characters'),
  invalidEmail: () => new AppError('invalid_email', 400, 'Please enter a valid e-mail address'),
  weakPassword: () =>
    new AppError('weak_password', 400, 'Password must be at least 8 characters long'),
  passwordTooLong: () =>
    new AppError('password_too_long', 400, 'Password must be at most 256 characters long'),
  termsRequired: () =>
    new AppError('terms_required', 400, 'Please accept the terms of service and privacy policy'),
  emailTaken: () =>
    new AppError(
      'email_taken',
      409,
      'An account with this e-mail already exists. Sign in or reset your password instead.',
    ),
  invalidCredentials: () => new AppError('invalid_credentials', 401, 'Invalid login credentials'),
  sessionMissing: () => new AppError('unauthorized', 401, 'Auth session missing!'),
  sessionExpired: () =>
    new AppError('session_expired', 401, 'Your session has expired. Please sign in again.'),
  refreshTokenReused: () =>
    new AppError(
      'refresh_token_reused',
      401,
      'This session was signed out for your security. Please sign in again.',
    ),
  invalidToken: () =>
    new AppError('invalid_token', 400, 'This link is invalid or has already been used'),
  tokenExpired: () =>
    new AppError('token_expired', 400, 'This link has expired. Please request a new one.'),
  invalidPassword: () =>
    new AppError('invalid_password', 400, 'The password you entered is incorrect'),
  invalidMfaCode: () => new AppError('mfa_invalid_code', 400, 'Invalid verification code'),
  mfaNotEnrolled: () =>
    new AppError('mfa_not_enrolled', 409, 'Two-factor authentication is not set up'),
  mfaNeedsVerifiedEmail: () =>
    new AppError(
      'email_not_verified',
      403,
      'Please verify your e-mail before turning on two-factor authentication',
    ),
  mfaAlreadyEnrolled: () =>
    new AppError('mfa_already_enrolled', 409, 'Two-factor authentication is already on'),
  sessionNotFound: () => new AppError('session_not_found', 404, 'Session not found'),
  oauthNotConfigured: () =>
    new AppError('oauth_not_configured', 404, 'Google sign-in is not configured on this server'),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError('rate_limited', 429, 'Too many attempts. Please try again later.', {
      retryAfterSeconds,
    }),
};
