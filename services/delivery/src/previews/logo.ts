import sharp from 'sharp';

/** Longest side of a stored logo: sharp on a 2× screen at the 64 px the pages and e-mails show. */
export const LOGO_MAX_SIDE = 256;
/** A logo is a small picture; anything larger is a mistake or a decompression bomb. */
const MAX_INPUT_PIXELS = 25_000_000;
const RENDER_TIMEOUT_SECONDS = 15;

export interface RenderedLogo {
  image: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes whatever image the seller sent (PNG, JPEG, WebP, GIF, AVIF, TIFF, SVG — libvips
 * decides from the bytes, not the name), turns it upright, fits it into 256 × 256 and re-encodes
 * it as PNG without metadata. The bytes buyers get are always ours, never the upload's.
 */
export async function renderLogo(input: Buffer): Promise<RenderedLogo> {
  const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
    .timeout({ seconds: RENDER_TIMEOUT_SECONDS })
    .rotate()
    .resize(LOGO_MAX_SIDE, LOGO_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .png({ compressionLevel: 9 })
    .toBuffer({ resolveWithObject: true });
  return { image: data, width: info.width, height: info.height };
}
