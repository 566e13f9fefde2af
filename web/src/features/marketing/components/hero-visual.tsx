import { CheckCircle2, FileArchive, Lock } from 'lucide-react';

/** A drawing of a locked product page; decorative, so hidden from assistive technology. */
export function HeroVisual() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div className="absolute -inset-6 -z-10 rounded-[2.5rem] bg-gradient-to-tr from-indigo-200/60 via-violet-200/40 to-sky-200/60 blur-2xl" />
      <div className="overflow-hidden rounded-2xl bg-white shadow-2xl ring-1 ring-slate-900/10">
        <div className="flex items-center gap-1.5 border-b border-slate-100 bg-slate-50 px-4 py-3">
          <span className="size-2.5 rounded-full bg-rose-300" />
          <span className="size-2.5 rounded-full bg-amber-300" />
          <span className="size-2.5 rounded-full bg-emerald-300" />
          <span className="ml-3 h-5 flex-1 rounded-md bg-white ring-1 ring-slate-200" />
        </div>
        <div className="p-5">
          <div className="relative h-48 overflow-hidden rounded-xl bg-gradient-to-br from-indigo-100 to-sky-100">
            <div className="absolute inset-0 grid grid-cols-3 gap-3 p-5 blur-[6px]">
              <span className="col-span-2 rounded-lg bg-indigo-400/70" />
              <span className="rounded-lg bg-violet-400/70" />
              <span className="rounded-lg bg-sky-400/70" />
              <span className="col-span-2 rounded-lg bg-indigo-300/80" />
              <span className="col-span-3 rounded-lg bg-violet-300/70" />
            </div>
            <div className="absolute inset-0 flex flex-col items-center justify-center gap-2">
              <span className="flex size-12 items-center justify-center rounded-full bg-white/90 shadow-lg">
                <Lock className="size-5 text-indigo-600" />
              </span>
              <span className="rounded-full bg-white/90 px-3 py-1 text-xs font-semibold text-slate-700 shadow">
                Blurred preview
              </span>
            </div>
          </div>
          <div className="mt-5 flex items-center gap-3">
            <span className="flex size-10 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
              <FileArchive className="size-5" />
            </span>
            <div className="flex-1">
              <p className="text-sm font-semibold text-slate-900">Brand identity kit</p>
              <p className="text-xs text-slate-500">brand-kit.zip</p>
            </div>
          </div>
          <div className="mt-5 space-y-2.5">
            <div className="h-10 rounded-lg bg-white px-3 text-sm leading-10 text-slate-500 ring-1 ring-slate-200">
              you@example.com
            </div>
            <div className="h-10 rounded-lg bg-indigo-600 text-center text-sm leading-10 font-semibold text-white">
              Pay to unlock
            </div>
          </div>
        </div>
      </div>
      <div className="absolute -bottom-6 -left-2 flex items-center gap-3 rounded-xl bg-white px-4 py-3 shadow-xl ring-1 ring-slate-900/5 sm:-left-8">
        <CheckCircle2 className="size-6 text-emerald-500" />
        <div>
          <p className="text-sm font-semibold text-slate-900">Payment confirmed</p>
          <p className="text-xs text-slate-500">File unlocked for the buyer</p>
        </div>
      </div>
    </div>
  );
}
