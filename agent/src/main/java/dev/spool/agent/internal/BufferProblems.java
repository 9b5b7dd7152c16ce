package dev.spool.agent.internal;

import dev.spool.buffer.BufferListener;
import java.nio.file.Path;

/** Reports the buffer's conflicts and write errors through the agent's log (once per file) and counters. */
final class BufferProblems implements BufferListener {

    private final AgentControl control;

    BufferProblems(AgentControl control) {
        this.control = control;
    }

    @Override
    public void conflict(Path path, Path conflictFile) {
        control.error("conflict:" + path, path + " was changed by someone else; Spool's content is in " + conflictFile);
    }

    @Override
    public void writeError(Path path, Throwable error) {
        control.error("write:" + path, "cannot write " + path + " (" + error + "); kept in memory for retry");
    }
}
