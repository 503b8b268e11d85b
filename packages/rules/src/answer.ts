/** An HTTP answer the rule book writes for a failure: status and JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}
