import sharp from 'sharp';

/** Longest side of every preview image: enough for a product page and a share card. */
export const PREVIEW_MAX_SIDE = 1200;
/**
 * The product page shows the preview about this wide. Spec §4 defines blur on the client's
 * scale (CSS blur of percentage / 10 px on the displayed image), so the sigma grows with the
 * rendered size to look the same once the browser scales the image down.
 */
const DISPLAY_SIDE = 600;
/**
 * Sigma at 100 %, as a share of the image's longest side. The spec's percentage / 10 px left a
 * poster's large headline readable at 60 % (issue 29), inside the 50–70 % the create form
 * recommends; a headline's strokes scale with the image, so the blur must too. The curve
 * (percentage^1.5) keeps 10–30 % a soft haze and makes 50 % about 4 % of the side, where a
 * headline one seventh of the image high is gone (test/blur-hides-text.test.ts).
 */
const FULL_BLUR_SHARE_OF_SIDE = 0.12;
/**
 * Beyond this a picture is a decompression bomb rather than a product: a 40-megapixel camera
 * photo passes, and decoding one stays well inside the render process's memory limit.
 */
const MAX_INPUT_PIXELS = 40_000_000;
const RENDER_TIMEOUT_SECONDS = 30;

export interface PreviewImage {
  image: Buffer;
  contentType: 'image/jpeg';
  width: number;
  height: number;
}

/** Never weaker than the spec's percentage / 10 px at display size, and scaled to hide text. */
export function blurSigma(blurPercentage: number, longestSide: number): number {
  const specSigma = (blurPercentage / 10) * (longestSide / DISPLAY_SIDE);
  const textHidingSigma = FULL_BLUR_SHARE_OF_SIDE * longestSide * (blurPercentage / 100) ** 1.5;
  return Math.max(specSigma, textHidingSigma);
}

/**
 * Downscales to at most 1200 px, blurs, and re-encodes as JPEG without metadata (no EXIF, no
 * GPS). Even at 0% blur the result is a new, smaller image: the original bytes never leave.
 * libvips does the work on the libuv thread pool, off the event loop.
 */
export async function blurredPreview(
  input: string | Buffer,
  blurPercentage: number,
): Promise<PreviewImage> {
  const { data, info } = await sharp(input, {
    limitInputPixels: MAX_INPUT_PIXELS,
    sequentialRead: true,
  })
    .timeout({ seconds: RENDER_TIMEOUT_SECONDS })
    .rotate()
    .resize(PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sigma = blurSigma(blurPercentage, Math.max(info.width, info.height));
  let pipeline = sharp(data, {
    raw: { width: info.width, height: info.height, channels: info.channels },
  }).timeout({
    seconds: RENDER_TIMEOUT_SECONDS,
  });
  // libvips refuses sigmas below 0.3; such a blur would be invisible anyway.
  if (sigma >= 0.3) pipeline = pipeline.blur(sigma);
  const image = await pipeline.jpeg({ quality: 80, mozjpeg: true }).toBuffer();
  return { image, contentType: 'image/jpeg', width: info.width, height: info.height };
}
