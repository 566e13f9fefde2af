/** Team seats (issue 28): Settings → Team, the store switcher and the invitation page. */
export { TeamSection } from './components/team-section';
export { ActivitySection } from './components/activity-section';
export { ReadOnlyNote } from './components/read-only-note';
export { StoreSwitcher } from './components/store-switcher';
export { AcceptInviteScreen } from './components/accept-invite-screen';
