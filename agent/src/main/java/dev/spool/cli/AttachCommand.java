package dev.spool.cli;

import com.sun.tools.attach.VirtualMachine;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code attach <pid> [key=value,...]}: installs the agent into a running JVM (JDK attach API).
 * The options are the agent arguments ({@code -javaagent:spool-agent.jar=<options>}). Classes
 * already loaded are retransformed; Jackson writes, JUL handlers and Logback appenders opened
 * from then on are routed, and so are the JUL {@code FileHandler}s and Logback file appenders
 * already open on the host's loggers.
 */
public final class AttachCommand implements Command {

    private static final PrintStream NOWHERE = new PrintStream(java.io.OutputStream.nullOutputStream());

    @Override
    public String name() {
        return "attach";
    }

    @Override
    public String usage() {
        return "<pid> [key=value,...]  install the agent into a running JVM (JDK attach API)";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.size() > 2) {
            err.println("usage: attach " + usage());
            return SpoolCli.USAGE;
        }
        try {
            String pid = AgentJvm.checkPid(args.get(0));
            String options = args.size() == 2 ? args.get(1) : "";
            if (options.contains("spool.command=")) {
                err.println("spool.command is not an agent setting");
                return SpoolCli.USAGE;
            }
            String jar = AgentJvm.agentJar();
            VirtualMachine vm = AgentJvm.attach(pid);
            try {
                AgentJvm.noteDynamicLoading(vm, jar, err);
                AgentJvm.load(vm, pid, jar, options);
            } finally {
                AgentJvm.detach(vm);
            }
            String status = LocalJmx.ask(pid, "status"); // through JMX: no second load, no second warning
            if (status == null) {
                status = AgentJvm.command(pid, "status", NOWHERE); // the note was printed above
            }
            if (!status.contains("\"installed\":true")) {
                err.println("the agent did not install in process " + pid + " (see its stderr for the [spool] line): " + status);
                return SpoolCli.PROBLEM;
            }
            out.println("attached to " + pid);
            return 0;
        } catch (AgentJvm.Failure e) {
            err.println(e.getMessage());
            return SpoolCli.USAGE;
        }
    }
}
