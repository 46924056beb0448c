/** The public pages' data shapes and shared texts: their home is the pages feature's contract (issue 28.6). */
export * from '../../worker/features/pages/contract';
