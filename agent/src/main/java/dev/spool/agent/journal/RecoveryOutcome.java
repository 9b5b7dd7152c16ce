package dev.spool.agent.journal;

import java.nio.file.Path;

/** What one log journal's recovery did, as {@code spool recover} reports it: a problem (nothing changed) or a line. */
public interface RecoveryOutcome {

    /** Why nothing was replayed (the journal left as it was), or null. */
    String problem();

    /** One line for the agent's log or the command's output. */
    String describe(Path file);
}
