import { AgentcheckError } from '../config/errors.js';

/**
 * An OTLP trace export the receiver cannot read: a malformed JSON or protobuf body, or a span
 * whose ids or times are not what OTLP prescribes. `path` says where in the request
 * (`resourceSpans[0].scopeSpans[1].spans[3].traceId`); the receiver answers it with a 400.
 */
export class OtlpDecodeError extends AgentcheckError {
  readonly path?: string;
  constructor(message: string, path?: string) {
    super('OTLP_INVALID', path ? `${path}: ${message}` : message);
    this.path = path;
  }
}
