import type { HomePageData } from './types';

/** Start page (spec 01 §1 hero, §2 main listing). */
export function HomePage(_props: { data: HomePageData }) {
  return (
    <>
      <section className="bg-gradient-to-br from-brand-700 to-brand-800 text-white">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:py-20">
          <h1 className="max-w-2xl text-4xl font-extrabold tracking-tight sm:text-5xl">Upptäck quizkvällar i din stad</h1>
          <p className="mt-4 max-w-xl text-lg text-brand-100">Pubquiz på stan – sök på stad, veckodag, datum eller ställe.</p>
          <a href="#quiz" className="mt-8 inline-flex rounded-xl bg-white px-5 py-3 font-bold text-brand-800 shadow hover:bg-brand-50">
            Hitta quiz nära dig
          </a>
        </div>
      </section>
      <section id="quiz" aria-labelledby="quiz-heading" className="mx-auto max-w-6xl scroll-mt-4 px-4 py-10">
        <h2 id="quiz-heading" className="text-2xl font-bold">
          Kommande quizkvällar
        </h2>
      </section>
    </>
  );
}
