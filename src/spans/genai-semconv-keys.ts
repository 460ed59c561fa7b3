/**
 * gen_ai.* attribute keys of the OpenTelemetry GenAI semantic conventions that agentcheck does
 * not write itself but other instrumentation does (an external agent's own spans, an SDK's): a
 * query on one of them can match, so it is not refused as a misspelling.
 */
export const GENAI_SEMCONV_KEYS: ReadonlySet<string> = new Set([
  'gen_ai.agent.description',
  'gen_ai.agent.id',
  'gen_ai.agent.name',
  'gen_ai.conversation.id',
  'gen_ai.data_source.id',
  'gen_ai.embeddings.dimension.count',
  'gen_ai.evaluation.explanation',
  'gen_ai.evaluation.name',
  'gen_ai.evaluation.score.label',
  'gen_ai.evaluation.score.value',
  'gen_ai.input.messages',
  'gen_ai.operation.name',
  'gen_ai.output.messages',
  'gen_ai.output.type',
  'gen_ai.provider.name',
  'gen_ai.request.choice.count',
  'gen_ai.request.encoding_formats',
  'gen_ai.request.frequency_penalty',
  'gen_ai.request.max_tokens',
  'gen_ai.request.model',
  'gen_ai.request.presence_penalty',
  'gen_ai.request.seed',
  'gen_ai.request.stop_sequences',
  'gen_ai.request.temperature',
  'gen_ai.request.top_k',
  'gen_ai.request.top_p',
  'gen_ai.response.finish_reasons',
  'gen_ai.response.id',
  'gen_ai.response.model',
  'gen_ai.system',
  'gen_ai.system_instructions',
  'gen_ai.token.type',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.id',
  'gen_ai.tool.call.result',
  'gen_ai.tool.definitions',
  'gen_ai.tool.description',
  'gen_ai.tool.name',
  'gen_ai.tool.type',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
]);

/**
 * The operation names the GenAI conventions list for `gen_ai.operation.name` (well-known values:
 * an instrumentation may also write a name of its own, so only a near miss of these is refused).
 */
export const GENAI_OPERATION_NAMES = ['chat', 'create_agent', 'embeddings', 'execute_tool', 'generate_content', 'invoke_agent', 'text_completion'] as const;
