import { z } from 'zod';
import { payoutMethodSchema } from './payouts.js';
import { planIdSchema } from '../shared.js';
import { actingSchema } from './teams.js';

/** Onboarding roles (spec §3). */
export const profileRoleSchema = z.enum(['freelancer', 'agency', 'creator', 'business']);
export type ProfileRole = z.infer<typeof profileRoleSchema>;

/** GET/PATCH /api/profile. */
export const profileSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  avatarUrl: z.string().nullable(),
  plan: planIdSchema,
  payoutMethod: payoutMethodSchema.nullable(),
  role: profileRoleSchema.nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Profile = z.infer<typeof profileSchema>;

/** What `GET /api/auth/session`, sign-in, sign-up, the MFA challenge and refresh answer. */
export const sessionResponseSchema = z.object({
  user: z.object({
    id: z.uuid(),
    email: z.string(),
    emailVerified: z.boolean(),
    plan: planIdSchema,
  }),
  profile: profileSchema,
  /** expiresAt: when the access token expires; refresh (POST /api/auth/refresh) before then. */
  session: z.object({ id: z.uuid(), expiresAt: z.iso.datetime(), persistent: z.boolean() }),
  /** Set while the person acts for another store (issue 28): `user` stays the person. */
  acting: actingSchema.optional(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/**
 * GET /api/auth/session for a visitor who brings no credentials at all (no session cookie, no
 * bearer token): nobody is signed in, which is an answer, not an error (issue 29: every
 * anonymous page logged a 401). A session that was revoked or expired still gets 401.
 */
export const anonymousSessionSchema = z.object({ user: z.null() });

/** Sign-in's answer when a second factor is due. */
export const mfaChallengeSchema = z.object({
  mfaRequired: z.literal(true),
  challengeToken: z.string(),
  expiresAt: z.iso.datetime(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

/** One of the account's signed-in sessions (GET /api/auth/sessions). */
export const signedInSessionSchema = z.object({
  id: z.uuid(),
  current: z.boolean(),
  persistent: z.boolean(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type SignedInSession = z.infer<typeof signedInSessionSchema>;

export const sessionListSchema = z.object({ sessions: z.array(signedInSessionSchema) });
export type SessionList = z.infer<typeof sessionListSchema>;

/*
 * Requests. Sign-up, sign-in and the MFA challenge take lenient shapes on purpose: a missing or
 * empty field gets the spec's own message from identity (§5 'Please fill in all fields'), not a
 * generic validation error. The web sends every field.
 */

export const signUpRequestSchema = z.object({
  fullName: z.string().optional(),
  email: z.string().optional(),
  password: z.string().optional(),
  acceptTerms: z.boolean().optional(),
  remember: z.boolean().optional(),
});
export type SignUpRequest = Required<z.infer<typeof signUpRequestSchema>>;

export const signInRequestSchema = z.object({
  email: z.string().optional(),
  password: z.string().optional(),
  remember: z.boolean().optional(),
});
export type SignInRequest = Required<z.infer<typeof signInRequestSchema>>;

/** POST /api/auth/mfa/challenge: the second step of a sign-in that asked for it. */
export const mfaChallengeRequestSchema = z.object({
  challengeToken: z.string().optional(),
  code: z.string().optional(),
});
export type MfaChallengeRequest = Required<z.infer<typeof mfaChallengeRequestSchema>>;

/**
 * POST /api/auth/mfa/challenge's answer: the session, and when a recovery code was used
 * (instead of the app's code) how many unused ones are left.
 */
export const mfaChallengeResponseSchema = sessionResponseSchema.extend({
  recoveryCodesRemaining: z.number().int().min(0).optional(),
});
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponseSchema>;

/**
 * How the signed-in person proves who they are again (GET /api/auth/reauthenticate): a code from
 * their authenticator app, their password, or (Google-only accounts) a code e-mailed to them.
 */
export const reauthenticationMethodSchema = z.enum(['mfa', 'password', 'email_code']);
export type ReauthenticationMethod = z.infer<typeof reauthenticationMethodSchema>;
export const reauthenticationOptionsSchema = z.object({ method: reauthenticationMethodSchema });
export const reauthenticateRequestSchema = z.object({
  password: z.string().max(1024).optional(),
  code: z.string().max(32).optional(),
});
export type ReauthenticateRequest = z.infer<typeof reauthenticateRequestSchema>;

/** Which sessions POST /api/auth/sign-out ends: this one, all, or all but this one. */
export const signOutScopeSchema = z.enum(['local', 'global', 'others']);
export type SignOutScope = z.infer<typeof signOutScopeSchema>;

export const fullNameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter your full name')
  .max(100, 'Please keep your name under 100 characters');

/** Where delivery serves an uploaded avatar (resized and re-encoded like a store logo). */
export const AVATAR_PATH_PATTERN = /^\/api\/avatars\/([0-9a-f-]{36})\/[a-f0-9]{32}\.png$/;
export const avatarPath = (userId: string, imageId: string) =>
  `/api/avatars/${userId}/${imageId}.png`;

const isWebUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * An uploaded avatar's path (settings uploads one), or an http(s) link: accounts made before
 * uploads may hold one and API clients may still set one. Messages are sentences people read.
 */
export const avatarUrlSchema = z
  .string()
  .max(2048, 'That picture address is too long. Please upload the picture instead.')
  .refine((value) => AVATAR_PATH_PATTERN.test(value) || isWebUrl(value), {
    message: 'Please upload a picture, or use a web address that starts with https://',
  });

/** POST /api/avatars (delivery): the stored, resized picture to save as the profile's avatarUrl. */
export const uploadedAvatarSchema = z.object({
  avatarUrl: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type UploadedAvatar = z.infer<typeof uploadedAvatarSchema>;

/**
 * PATCH /api/profile. Strict: an unknown field (notably `plan`, which only billing changes) is
 * refused, not ignored.
 */
export const profileChangesSchema = z.strictObject({
  fullName: fullNameSchema.optional(),
  avatarUrl: avatarUrlSchema.nullable().optional(),
  payoutMethod: payoutMethodSchema.nullable().optional(),
  role: profileRoleSchema.nullable().optional(),
});
export type ProfileChanges = z.input<typeof profileChangesSchema>;

/** The authenticator code that verifies, answers or removes a second factor. */
export const mfaCodeRequestSchema = z.object({
  code: z.string().min(1, 'Please enter the 6-digit code'),
});

/**
 * GET /api/auth/mfa. `pending`: enrolled, not yet verified with a first code;
 * `recoveryCodesRemaining`: unused one-time recovery codes (0 while MFA is off).
 */
export const mfaStatusSchema = z.object({
  enabled: z.boolean(),
  pending: z.boolean(),
  recoveryCodesRemaining: z.number().int().min(0),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** POST /api/auth/mfa/enroll: the new secret, as text and as a QR code for the app to scan. */
export const mfaEnrollmentSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qrCodeDataUrl: z.string(),
});
export type MfaEnrollment = z.infer<typeof mfaEnrollmentSchema>;

/**
 * Ten one-time recovery codes, shown once: POST /api/auth/mfa/verify (MFA turned on) and
 * POST /api/auth/mfa/recovery-codes (a new set; the old one stops working).
 */
export const mfaRecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type MfaRecoveryCodes = z.infer<typeof mfaRecoveryCodesSchema>;
export const mfaVerifiedSchema = mfaRecoveryCodesSchema.extend({ enabled: z.literal(true) });
export type MfaVerified = z.infer<typeof mfaVerifiedSchema>;

/** GET /api/auth/oauth/providers: which sign-in providers are configured here. */
export const oauthProvidersSchema = z.object({ google: z.boolean() });
export type OAuthProviders = z.infer<typeof oauthProvidersSchema>;
