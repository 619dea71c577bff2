/** The gateway's request/reply client to the services (NATS or in-process). */
export const RPC = Symbol('RPC_CLIENT');
