/** 404 page (spec 01 §2 route '*'). */
export function NotFound() {
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 px-4 text-center">
      <title>Sidan hittades inte | Quizkväll</title>
      <p className="text-6xl font-extrabold text-brand-600" aria-hidden="true">
        404
      </p>
      <h1 className="text-3xl font-extrabold">Ops! Sidan hittades inte</h1>
      <p className="text-slate-700">Sidan du letar efter finns inte, eller har flyttats.</p>
      <a href="/" className="rounded-xl bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700">
        Tillbaka hem
      </a>
    </div>
  );
}
export default NotFound;
