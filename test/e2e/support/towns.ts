/**
 * The towns the stories put their places in (issue 43.6: a place's city is a known Swedish locality, so a story can no
 * longer make up a town of its own). Each is one story's alone, and none is a town of the demo data: a story's city
 * page, its promotion slots and its counts hold only what the story made. ASCII names, so a town's slug is its name in
 * lower case. A unit test (test/unit/e2e-towns.test.ts) keeps them distinct, known and out of the demo data.
 */
export const STORY_TOWNS = {
  analyticsSlots: 'Nora',
  analyticsClicks: 'Lindesberg',
  budgets: 'Hallstahammar',
  holidays: 'Arboga',
  ownerPaths: 'Fagersta',
  ownerPromote: 'Kristinehamn',
  ownerQuizzes: 'Hedemora',
  ownerQuizzesSingle: 'Avesta',
  promotionBuy: 'Ludvika',
  promotionVerifyRetries: 'Sala',
  promotionCancelled: 'Kumla',
  promotionSuperadmin: 'Hallsberg',
  promotionSeries: 'Motala',
  pwa: 'Tierp',
  pwaOffline: 'Oskarshamn',
  takeItWithYou: 'Ljungby',
  xss: 'Markaryd',
  tips: 'Alvesta',
  ownerKit: 'Vimmerby',
  tipsUnknownFacts: 'Vetlanda',
  resultsPhone: 'Filipstad',
  resultsDesktop: 'Hagfors',
  leagueFirst: 'Vadstena',
  leagueSecond: 'Mariestad',
} as const;
export type StoryTown = keyof typeof STORY_TOWNS;
