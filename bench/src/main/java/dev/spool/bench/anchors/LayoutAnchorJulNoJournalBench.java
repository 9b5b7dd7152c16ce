package dev.spool.bench.anchors;

import org.openjdk.jmh.annotations.Fork;

/**
 * Spool's JUL row: the plain {@code FileHandler} + {@code SimpleFormatter} contender
 * ({@code julFile}) in a fork running the agent at its defaults, which captures each record at the
 * call and formats it on Spool's writer (issue 13). Run from the repository root (the agent jar's
 * path is relative). With {@code spool.sink.journal=false}: the JUL journal's cost at the call (issue 33) is the
 * difference to {@link LayoutAnchorJulAgentBench}.
 */
@Fork(value = 1, jvmArgsAppend = "-javaagent:agent/target/spool-agent.jar=spool.log.level=warn,spool.sink.journal=false")
public class LayoutAnchorJulNoJournalBench extends LayoutAnchorBase {

    @Override
    protected String contender() {
        return "julFile";
    }

    @Override
    protected String label() {
        return "spoolJulNoJournal";
    }
}
