/**
 * JUL capture at the call (issue 13): for a routed {@code FileHandler} with the JDK's
 * {@code SimpleFormatter}, the application's thread captures a record ({@link dev.spool.agent.jul.JulCapture})
 * and a writer thread formats it ({@link dev.spool.agent.jul.CompiledSimpleFormatter}) and publishes
 * it through the handler ({@link dev.spool.agent.jul.JulCaptureLog}); {@link dev.spool.agent.jul.JulCaptures}
 * is the woven hooks' entry point.
 *
 * <h2>Threading and memory ordering</h2>
 * <ul>
 *   <li>A {@code JulCapture} is immutable once offered (its deferred message is written and read
 *       by the one drainer); it crosses threads through {@code dev.spool.internal.handoff}'s queue (release
 *       on offer, acquire on poll).</li>
 *   <li>Every drain of a handler's queue (its writer thread, a {@code flush()} or {@code close()},
 *       the exit hook) takes the handler's monitor, then the queue's lock: one order, so Java 17's
 *       {@code synchronized} {@code flush}/{@code close} never deadlock with the writer.</li>
 *   <li>No host code runs on the writer for a record: everything the JDK's formatter would ask the
 *       host (a parameter's {@code toString()}, a resource bundle, a throwable's methods, a level's own
 *       bundle) is asked on the caller's thread at the call ({@link dev.spool.agent.jul.JulCapture}), outside
 *       the handler's monitor. The writer holds that monitor while it writes; a host thread holding a
 *       lock of its own and waiting for the monitor (its {@code flush()}) cannot then deadlock with it (issue 30).</li>
 *   <li>The handler list is a copy-on-write array in a volatile field, read without a lock.</li>
 *   <li>{@code CompiledSimpleFormatter}'s per-second cache is an immutable record in a volatile field.</li>
 * </ul>
 */
package dev.spool.agent.jul;
