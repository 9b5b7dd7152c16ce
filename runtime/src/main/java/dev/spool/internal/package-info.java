/**
 * Spool's internals: packages under {@code dev.spool.internal} are public only so that Spool's
 * other modules (the agent, the MBeans, the Kafka shipper) can use them. None of it is API; any of
 * it may change in any release. The API is listed in README ("Using the runtime library").
 */
package dev.spool.internal;
