/**
 * The mapped journals of routed logs (issue 33), shared by JUL ({@code dev.spool.agent.jul}) and
 * Logback ({@code dev.spool.agent.logback}): {@link dev.spool.agent.journal.MappedLogJournal} (the
 * ring, its layout and its memory-ordering rules: a frame's ring offset and state are stored with
 * release and read with acquire, everything else of a frame is plain and published by them),
 * {@link dev.spool.agent.journal.RecoveryTarget} (into the log or beside it) and
 * {@link dev.spool.agent.journal.RecoveryAppends} (placing a recovered line exactly once). Each
 * library's codec and recovery (what a record holds, how its line is formatted again) stay in its package.
 */
package dev.spool.agent.journal;
