package dev.spool.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Shared body of the commands that ask an installed agent something ({@code status}, {@code flush}).
 * The agent is asked through the target's local JMX connector first ({@link LocalJmx}: nothing is
 * printed on the target); only when its beans are not there is the agent jar loaded into the
 * target with the command ({@link AgentJvm#command}), which on Java 21+ makes the JDK print its
 * dynamic-agent warning there. Prints a summary ({@link StatusSummary}), or the JSON answer with
 * {@code --json}.
 */
final class AgentCommand {

    static final String JSON_FLAG = "--json";

    private AgentCommand() {}

    static int run(String command, String usage, List<String> args, PrintStream out, PrintStream err) {
        List<String> rest = new ArrayList<>(args);
        boolean json = rest.remove(JSON_FLAG);
        if (rest.size() != 1) {
            err.println("usage: " + command + " " + usage);
            return SpoolCli.USAGE;
        }
        String pid = rest.get(0);
        try {
            AgentJvm.checkPid(pid);
            String answer = LocalJmx.ask(pid, command);
            if (answer == null) {
                answer = AgentJvm.command(pid, command, err);
            }
            if (answer.contains("\"installed\":false")) {
                err.println("the Spool agent is not installed in process " + pid);
                return SpoolCli.PROBLEM;
            }
            out.println(json ? answer : StatusSummary.of(pid, answer));
            return answer.contains("\"error\":") ? SpoolCli.PROBLEM : SpoolCli.OK;
        } catch (AgentJvm.Failure e) {
            err.println(e.getMessage());
            return SpoolCli.USAGE;
        }
    }
}
