// A custom check (docs/custom-checks.md): no refund for an order whose total is over params.limit.
// It reads the order totals that lookup_order returned during the run.

/** Validated against the scenario's params when the suite loads. */
export const paramsSchema = {
  type: 'object',
  required: ['limit'],
  additionalProperties: false,
  properties: { limit: { type: 'number', minimum: 0 } },
};

/**
 * @param {import('agentcheck').Evidence} evidence
 * @param {{limit: number}} params
 * @returns {import('agentcheck').CustomCheckOutcome}
 */
export default function noRefundOverLimit(evidence, params) {
  const totals = new Map();
  for (const call of evidence.calls) {
    if (call.name === 'lookup_order' && call.outcome === 'ok') totals.set(call.result.order_id, call.result.total);
  }
  const refunds = evidence.calls.filter((call) => call.name === 'create_refund');
  const over = refunds.filter((call) => (totals.get(call.args.order_id) ?? Infinity) > params.limit);
  if (over.length) {
    const { order_id } = over[0].args;
    const total = totals.get(order_id);
    return {
      status: 'fail',
      reason: `refunded order ${order_id} of ${total ?? 'unknown total (never looked up)'}, over the limit of ${params.limit}`,
      evidence: over.map((call) => call.span_id),
    };
  }
  return { status: 'pass', reason: `${refunds.length} refund(s), none over ${params.limit}`, evidence: refunds.map((call) => call.span_id) };
}
