/**
 * The brand feature's public surface: the seller's brand settings, their custom domain (which
 * shows the branded store) and their public store page.
 */
export { BrandSection } from './components/brand-section';
export { DomainSection } from './components/domain-section';
export { StorePage } from './components/store-page';
export { useStore } from './api/store';
