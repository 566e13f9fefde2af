/** The webhooks feature's public surface: the settings section for sellers' endpoints. */
export { WebhooksSection } from './components/webhooks-section';
