/** The custom-domain feature's public surface: the Domain section of /settings (issue 28). */
export { DomainSection } from './components/domain-section';
