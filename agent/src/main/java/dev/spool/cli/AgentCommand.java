package dev.spool.cli;

import java.io.PrintStream;
import java.util.List;

/** Shared body of the commands that ask an installed agent something. */
final class AgentCommand {

    private AgentCommand() {}

    static int run(String command, String usage, List<String> args, PrintStream out, PrintStream err) {
        if (args.size() != 1) {
            err.println("usage: " + command + " " + usage);
            return SpoolCli.USAGE;
        }
        try {
            String answer = AgentJvm.command(args.get(0), command, err);
            if (answer.contains("\"installed\":false")) {
                err.println("the Spool agent is not installed in process " + args.get(0));
                return SpoolCli.PROBLEM;
            }
            out.println(answer);
            return answer.contains("\"error\":") ? SpoolCli.PROBLEM : SpoolCli.OK;
        } catch (AgentJvm.Failure e) {
            err.println(e.getMessage());
            return SpoolCli.USAGE;
        }
    }
}
