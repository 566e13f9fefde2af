import { Seo } from '@/components/seo/seo';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { pageMeta } from '@/config/seo';

export default function NotFoundRoute() {
  return (
    <>
      <Seo {...pageMeta.notFound} />
      <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-28 text-center">
        <p className="text-base font-semibold text-indigo-600">404</p>
        <h1 className="mt-4 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
          Oops! Page not found
        </h1>
        <p className="mt-6 text-lg text-slate-600">
          The page you are looking for does not exist or has moved.
        </p>
        <ButtonLink to={paths.home.getHref()} size="lg" className="mt-10">
          Back to home
        </ButtonLink>
      </div>
    </>
  );
}
