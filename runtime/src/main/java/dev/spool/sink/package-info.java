/**
 * The event sink: many producer threads, a few large shared buffers, one writer thread.
 *
 * <h2>Claim, write, commit</h2>
 * A producer reserves {@code n} bytes of the current {@link dev.spool.sink.SinkBuffer} with one
 * atomic {@code getAndAdd} on its {@code claimed} counter, copies its bytes into the reserved
 * range and then adds {@code n} (and one event) to the buffer's {@code committed} counter. The
 * producer whose reservation first crosses the capacity <em>seals</em> the buffer: its
 * reservation start becomes the buffer's {@code limit}, it hands the buffer to the writer and
 * installs a free buffer as current. The writer waits until {@code committed == limit} and then
 * writes {@code [0, limit)}.
 *
 * <h2>Memory-ordering conventions (the only ones used in this package)</h2>
 * <ul>
 *   <li>{@code claimed} and {@code committed} are changed only with volatile {@code getAndAdd}
 *       (full fence). A producer's plain writes into the buffer happen-before its commit add; the
 *       writer reads {@code committed} with acquire semantics, so once it sees
 *       {@code committed == limit} every byte below {@code limit} is visible to it.</li>
 *   <li>{@code limit} is a plain field written by the sealer before it offers the buffer to the
 *       writer's JCTools queue; the queue's offer is a release and its poll an acquire.</li>
 *   <li>{@code enqueued} is written with release after the offer and read with acquire: a
 *       producer that sees it may install a replacement, knowing the sealed buffer is already
 *       ahead in the writer's queue (this is what keeps per-thread order across buffers).</li>
 *   <li>{@code current} (in {@link dev.spool.sink.ByteSink}) is read with acquire and replaced
 *       only by compare-and-set; a freshly installed buffer's {@code claimed} is opened (set from
 *       {@code CLOSED} to 0) with release <em>after</em> the compare-and-set, so a producer still
 *       holding a stale reference to a recycled buffer can never reserve space in it.</li>
 *   <li>Everything else crosses threads through JCTools queues or {@code volatile} fields.</li>
 * </ul>
 * The JCTools queues are its {@code org.jctools.queues.atomic} variants (field updaters and
 * {@code AtomicReferenceArray}), never the {@code sun.misc.Unsafe} ones: Java 24+ warns on the
 * host's stderr about every {@code Unsafe} memory-access call (JEP 471/498), and a later JDK
 * refuses them. Their offer is a release and their poll an acquire, as above.
 * VarHandles appear only in {@code SinkBuffer} and {@code ByteSink}.
 *
 * <h2>Producers that die, and closing</h2>
 * <ul>
 *   <li>Between {@code reserve} and the {@code try} there is no method call, and the copy is in
 *       a {@code try} whose {@code finally} commits (so a {@code StackOverflowError} or
 *       {@code OutOfMemoryError} thrown in the copy cannot leave the writer waiting). A failed
 *       copy does not call {@code commit}: it records a <em>hole</em> (offset and length) and
 *       counts the bytes as deferred, with plain writes under the buffer's {@code holes} monitor
 *       and no method call; the writer reads them under the same monitor, adds the deferred
 *       bytes to {@code committed} when comparing with {@code limit}, and leaves the holes out
 *       of what it writes.</li>
 *   <li>A sealed buffer is handed off by whoever wins the compare-and-set on its
 *       {@code handing} flag: its sealer, or the writer when the buffer stayed current, sealed
 *       and not enqueued for {@code spool.sink.wait.millis} (its sealer died). {@code enqueued}
 *       is set in a {@code finally} after the offer.</li>
 *   <li>Every other wait (a commit that never comes, a buffer that is never opened, a free
 *       buffer, a direct write, flush, close) is bounded by {@code spool.sink.wait.millis}.</li>
 *   <li>Closing: after {@code closed} (volatile) is set, the writer seals the current buffer and
 *       installs {@code ByteSink.CLOSED_SLOT} by compare-and-set; its buffer is never opened, so
 *       every later reservation fails, and a producer that reads it (acquire) also sees
 *       {@code closed}. The writer ends only when that slot is current and its queue is empty,
 *       so every reservation made before is written. Units offered after that are written
 *       through under {@code ByteSink.throughLock}, once the writer has ended (its volatile
 *       {@code ended}, written last, read true: the writer's actions happen-before).</li>
 * </ul>
 */
package dev.spool.sink;
