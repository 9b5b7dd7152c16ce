/**
 * Capture at the call, encode on a writer thread: the hand-off of <em>captured records</em> (a
 * log record's values taken on the application's thread) to a pool thread that encodes them into a
 * log's output, in the order in which producers passed their capture point.
 *
 * <ul>
 *   <li>{@link dev.spool.internal.handoff.MpscCapturedRecordQueue} — a bounded queue many producer
 *       threads offer to (lock-free, {@code BLOCK} waits bounded, {@code DROP} never waits) and
 *       that one drainer at a time (guarded by the queue's own lock) hands to a
 *       {@link dev.spool.internal.handoff.CapturedRecordEncoder}. A flush is a drain on the flushing
 *       thread: when it returns, every record offered before it began has been encoded.</li>
 *   <li>{@link dev.spool.internal.handoff.CapturedLogWriterPool} — a small fixed pool of daemon threads
 *       (one per process, {@code spool.events.capture.threads}) that runs every registered
 *       log's drain task whenever a producer wakes it (and every idle period), at most one thread
 *       per log at a time, different logs in parallel, so records reach the encoder without the
 *       producer doing any encoding.</li>
 *   <li>{@link dev.spool.internal.handoff.ParkingReadyQueue} and
 *       {@link dev.spool.internal.handoff.TaskState} — the ready queue, idling and per-task
 *       scheduling state shared by this pool and the sinks' writer pool
 *       ({@code dev.spool.sink.SinkWriterPool}): producers schedule a task with one CAS and wake one
 *       thread; a pool thread polls briefly, then parks; a task scheduled by a producer that died
 *       before queueing it is found by the pool's periodic check and queued again.</li>
 * </ul>
 *
 * <h2>Memory-ordering conventions (the only ones used in this package)</h2>
 * <ul>
 *   <li>A record crosses threads only through a {@code ConcurrentLinkedQueue} (its
 *       {@code offer} links a node holding the record with one CAS; its {@code poll} reads the
 *       node's item with a volatile load): everything the producer wrote into the record before
 *       offering it is visible to the drainer. The bound is a separate {@code AtomicInteger}
 *       reserved before the link and released after the poll (by the drainer, in steps of
 *       polled records, so it is never below the records linked). Not JCTools' array queue: its
 *       offer claims a slot and stores into it in two steps, and a producer dying between them
 *       (a {@code StackOverflowError}) would leave every later drain spinning on that slot.</li>
 *   <li>Wake-ups use the Dekker pattern on pairs of volatile variables, always "write mine, then
 *       read theirs": a producer CASes a node into its queue (full fence) and then reads the
 *       log's scheduling state; a pool thread that finished a log stores {@code IDLE} and then
 *       reads the queue's head. A producer that moved a log to {@code SCHEDULED} offers it to the
 *       pool's ready queue and then reads the count of polling ("warm") threads and each
 *       thread's {@code SLEEPING} flag; a pool thread increments the warm count (or stores
 *       {@code SLEEPING}) before it reads the ready queue and parks, and polls again after it. At
 *       least one side sees the other's write, so a record never waits for the idle timeout.</li>
 *   <li>Drains are serialised by one {@code ReentrantLock} per queue: whatever a drain did
 *       happens-before the next drain begins, on whichever thread.</li>
 * </ul>
 */
package dev.spool.internal.handoff;
