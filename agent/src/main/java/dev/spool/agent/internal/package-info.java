/**
 * The agent's implementation, loaded only by {@link dev.spool.agent.boot.AgentClassLoader} (hidden
 * from the host): {@code Installer} (the one install sequence), {@code Wiring} and
 * {@code LazyTransformer}/{@code AsmWeaver}/{@code EntryHook} (what is instrumented), {@code HooksImpl} (what an
 * intercepted call does), {@code Backends} (the runtime's buffer, sink streams and event log),
 * {@code AgentControl} (kill switch, status, flush; the MBeans' view), {@code DeferredJmx}.
 *
 * <p>Memory ordering: configuration is immutable after install; everything shared across threads
 * is published through volatile fields (the hooks in {@code dev.spool.bridge.Hooks}, the routing
 * switch, lazily created back ends with double-checked locking on volatile fields) or held in
 * concurrent collections. No lock is taken on a host thread except the one-time creation of a back
 * end and the set of routed streams (add/remove per stream opened or closed).
 */
package dev.spool.agent.internal;
