/**
 * The event sink: many producer threads, a few large shared buffers, one writer per sink, and
 * one small pool of threads that runs every sink's writer.
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
 * <h2>Who runs the writer</h2>
 * A sink's {@link dev.spool.sink.SinkWriter} is a sequence of steps ({@code step()}: one queued
 * item, a flush request, or the idle chores; once closed, the whole closing). By default the
 * process's {@link dev.spool.sink.SinkWriterPool} runs those steps in turns on its threads
 * ({@code spool-sink-writer-<i>}, {@code spool.sink.threads}); with {@code spool.sink.threads=0},
 * and in the JCStress tests, one thread runs {@code SinkWriter.run()}, the same steps in a loop
 * that parks when idle. Either way exactly one thread runs a sink's steps at a time, so everything
 * below that says "the writer" holds for whichever thread runs the current turn, and the writer's
 * plain fields ({@code SinkBuffer.written}, {@code retire}, the writer's own state, in
 * {@code SinkWriter} and its {@code BackendWrites}) stay single-threaded in effect: consecutive
 * turns on different threads are ordered as stated next.
 *
 * <h2>Memory-ordering conventions (the only ones used in this package)</h2>
 * <ul>
 *   <li>Reservations and commits change {@code claimed} and {@code committed} only with volatile
 *       {@code getAndAdd} (full fence). A producer's plain writes into the buffer happen-before its
 *       commit add; the writer reads {@code committed} with acquire semantics, so once it sees
 *       {@code committed == limit} every byte below {@code limit} is visible to it. The only other
 *       writes of the two: {@code open()} sets {@code claimed} from {@code CLOSED} to 0 with
 *       release (see {@code current} below), and the writer's {@code recycle()} resets
 *       {@code committed} (release) and then {@code claimed} to {@code CLOSED} (volatile, last).</li>
 *   <li>{@code limit} is a plain field written by the sealer right after its sealing
 *       {@code getAndAdd} and before it offers the buffer to the writer's queue
 *       ({@code ConcurrentLinkedQueue}: its offer happens-before the poll that returns the
 *       element). The writer's rescue of a buffer whose sealer never offered it (below) has no
 *       such edge: it reads {@code limit} only after the buffer has stayed sealed for
 *       {@code spool.sink.wait.millis}, relying on that delay.</li>
 *   <li>{@code enqueued} is written with release after the offer returned and read with acquire:
 *       a producer that sees it may install a replacement, knowing the sealed buffer is already
 *       ahead in the writer's queue (this is what keeps per-thread order across buffers).
 *       {@code handing} (who hands a sealed buffer off) is claimed by compare-and-set.</li>
 *   <li>{@code current} (in {@link dev.spool.sink.BufferHandOff}) is read with acquire and replaced
 *       only by compare-and-set of a {@code Slot} (a new one per installation, so no ABA); a
 *       freshly installed buffer's {@code claimed} is opened with release <em>after</em> the
 *       compare-and-set, so a producer still holding a stale reference to a recycled buffer can
 *       never reserve space in it.</li>
 *   <li>The queued direct bytes ({@code DirectWrites.pendingDirect}) change only under
 *       {@code DirectWrites.pendingLock}: a producer checks the bound, offers and adds in one
 *       locked step; the writer subtracts for every direct write it takes off its queue
 *       (written, failed or withdrawn) and, between items, sets the count to the sum of the
 *       direct writes in its queue ({@code reconcile}: exact, since no producer can be between
 *       its offer and its add while the writer holds the lock). So a producer that dies in that
 *       step skews the count only until the writer's next idle moment or flush marker.</li>
 *   <li><b>Turns.</b> A sink's pool state ({@code SinkWriterPool.Member.state}, a
 *       {@link dev.spool.internal.handoff.TaskState}: idle, scheduled, running, ended) is an
 *       {@code AtomicInteger}. A turn begins only by a compare-and-set from
 *       scheduled to running (an extra entry in the ready queue is skipped), so one thread at a
 *       time. A turn ends with a volatile store of idle, or of scheduled followed by an offer to
 *       the ready queue ({@code ConcurrentLinkedQueue}); the next turn begins after a poll that
 *       returns the sink (and, from idle, a producer's compare-and-set that read that store): so
 *       everything a turn did happens-before the next turn, on whichever thread. The writer's
 *       {@code runner} (the thread of the current turn) is volatile.</li>
 *   <li><b>Wake-ups</b> are Dekker pairs, "write mine, then read theirs": a producer offers to
 *       the writer's queue or sets {@code flushRequested}/{@code closed} (volatile) and then reads
 *       the sink's state; a turn that found nothing stores idle and then reads the queue and those
 *       flags ({@code SinkWriter.hasInput}). A producer that scheduled the sink offers it to the
 *       ready queue ({@link dev.spool.internal.handoff.ParkingReadyQueue}, shared with the
 *       capture writers' pool) and then reads the pool's count of polling threads and each
 *       thread's {@code SLEEPING} flag; a pool thread raises the count (or stores {@code SLEEPING}) and then
 *       reads the ready queue before it parks. One side always sees the other. What no producer
 *       wakes a sink for (a partly filled buffer's linger, a dead sealer's buffer, a skewed direct
 *       count) the pool's timer does every {@code SinkWriter.LINGER_NANOS}; a producer dying
 *       between its compare-and-set to scheduled and its offer (or its unpark) leaves the sink
 *       scheduled with no turn: the timer offers it again after two ticks without one.</li>
 *   <li>A failed copy's hole and deferred bytes are written and read under the buffer's
 *       {@code holes} monitor. Everything else crosses threads through
 *       {@code ConcurrentLinkedQueue}s, {@code WriteRequest}'s atomic state or {@code volatile}
 *       fields; {@code SinkBuffer.written} and {@code retire} are the writer's own (ordered across
 *       turns as above).</li>
 * </ul>
 * The writer's queue and the free pool are {@code ConcurrentLinkedQueue}s, not JCTools array
 * queues: a JCTools MPSC/MPMC offer claims an index and stores the element in a second step, and
 * a producer dying between the two (a {@code StackOverflowError}) left the writer spinning in
 * {@code poll} for ever (issue 11; reproduced with {@code -XX:-TieredCompilation} and a thread
 * dump). A linked queue's offer is one compare-and-set of a complete node: done or not done.
 * Queue operations happen once per buffer, never per unit, so their cost does not matter.
 * VarHandles appear only in {@code SinkBuffer} and {@code BufferHandOff}.
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
 *   <li>A sealed buffer is handed off by its sealer (who wins the compare-and-set on its
 *       {@code handing} flag), which marks it {@code enqueued} once its offer returned. A buffer
 *       that stayed current, sealed and not enqueued for {@code spool.sink.wait.millis} is
 *       enqueued by the writer itself, claimed or not (its sealer died before, during or after
 *       the hand-off), and retired after writing; the writer skips a second offer of a buffer
 *       use it has written (see {@link dev.spool.sink.BufferHandOff}).</li>
 *   <li>Every other wait (a commit that never comes, a buffer that is never opened, a free
 *       buffer, a direct write, close) is bounded by {@code spool.sink.wait.millis}; a flush by
 *       its own timeout; a {@code drop} producer never waits beyond a moment's spin. These waits
 *       are the same on the pool: a producer waits for its sink's writer, never for a pool thread
 *       beyond them; a writer step that waits or blocks for {@code SinkWriterPool.STALL_NANOS}
 *       gets a spare thread started for the other sinks.</li>
 *   <li>Closing: after {@code closed} (volatile) is set, the writer seals the current buffer and
 *       installs {@code BufferHandOff.CLOSED_SLOT} by compare-and-set; its buffer is never opened, so
 *       every later reservation fails, and a producer that reads it (acquire) also sees
 *       {@code closed}. The writer ends only when that slot is current and its queue is empty,
 *       so every reservation made before is written. A current buffer left sealed by a dead
 *       sealer is rescued after half of {@code spool.sink.wait.millis} while closing, so close
 *       writes it within its own bound. If the current buffer cannot be sealed for
 *       {@code spool.sink.wait.millis} (its installer died between the compare-and-set and
 *       {@code open()}, so it refuses every reservation anyway) the writer records an error and
 *       ends once its queue is empty. Units offered after that are written
 *       through under {@code ByteSink.throughLock}, once the writer has ended (its volatile
 *       {@code ended}, written last, read true: the writer's actions happen-before). A close
 *       called from the writer's own turn (its {@code runner} is the calling thread) does not wait
 *       for itself: the turn's next step does the closing.</li>
 *   <li><b>Journal</b> (issue 33; event files, {@code file} back end): the buffers are regions of
 *       one shared mapping ({@link SinkJournal}). The installer stamps a region's use before
 *       {@code open()} (its release publishes the stamp); the writer records each write as pending
 *       before it, and zeroes the region and clears its use after it, before the buffer is
 *       recycled, so no producer copies into a region being zeroed. A retired buffer's region is
 *       marked retired (never replayed); its replacement takes a spare region.</li>
 * </ul>
 */
package dev.spool.sink;
