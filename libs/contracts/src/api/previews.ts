/**
 * The URL of a product's blurred preview image. The version (blur level and last change) makes
 * a new URL whenever the image changes, so it can be cached; the web app shows it and the
 * gateway's share page hints it to the browser, which only helps if both ask for the same URL.
 */
export function previewImagePath(product: {
  id: string;
  previewBlurPercentage: number;
  updatedAt: string;
}): string {
  const version = `${product.previewBlurPercentage}-${product.updatedAt}`;
  return `/api/previews/${encodeURIComponent(product.id)}?v=${encodeURIComponent(version)}`;
}
