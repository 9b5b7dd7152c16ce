package dev.spool.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A running JVM reached through the JDK attach API (module jdk.attach): loads the agent jar into
 * it, either to install the agent (dynamic attach) or to run one command of an installed agent
 * that cannot be asked through JMX ({@link LocalJmx}; {@code spool.command=status|flush}, whose
 * JSON answer the target writes to a reply file this side created). Same user as the target, as
 * the attach API requires.
 */
final class AgentJvm {

    /** Thrown with a message fit for the user (the CLI prints it and exits non-zero). */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }

    private AgentJvm() {}

    /** The agent jar this CLI runs from. */
    static String agentJar() throws Failure {
        try {
            return new File(AgentJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getAbsolutePath();
        } catch (URISyntaxException | RuntimeException e) {
            throw new Failure("cannot locate the agent jar: " + e);
        }
    }

    static String checkPid(String pid) throws Failure {
        if (pid == null || !pid.matches("[0-9]+")) {
            throw new Failure("expected a process id, got '" + pid + "'");
        }
        return pid;
    }

    /** The target's Java feature version, e.g. 17 or 25 (0 when unknown). */
    static int featureVersion(VirtualMachine vm) {
        try {
            String v = vm.getSystemProperties().getProperty("java.specification.version", "0");
            return Integer.parseInt(v.startsWith("1.") ? v.substring(2) : v);
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    /**
     * What the JDK prints on the target's stderr, since Java 21 (JEP 451), each time an agent jar
     * is loaded into a running JVM that was not started with {@code -XX:+EnableDynamicAgentLoading},
     * and the advice that goes with it. {@code attach} loads the agent jar this way, and so do
     * {@code status} and {@code flush} when the agent cannot be asked through JMX ({@link LocalJmx}),
     * so they print this note on their own stderr: the operator sees it where they typed the
     * command, not only in the application's log.
     */
    static String dynamicLoadingNote(int feature, String jar) {
        return "note: the target runs Java " + feature + ". Since Java 21 the JDK prints on the target's stderr,"
                + " each time this command loads the agent jar into it:\n"
                + "  WARNING: A Java agent has been loaded dynamically (" + jar + ")\n"
                + "  WARNING: If a serviceability tool is in use, please run with -XX:+EnableDynamicAgentLoading"
                + " to hide this warning\n"
                + "  WARNING: If a serviceability tool is not in use, please run with -Djdk.instrument.traceUsage"
                + " for more information\n"
                + "  WARNING: Dynamic loading of agents will be disallowed by default in a future release\n"
                + "Start the application with -XX:+EnableDynamicAgentLoading to allow Spool's attach, status and flush"
                + " without these lines (also when the agent was installed with -javaagent:). A JVM started with"
                + " -XX:-EnableDynamicAgentLoading refuses them: install the agent with -javaagent: at startup and"
                + " use its MBeans (JConsole) instead of status and flush.";
    }

    /** Prints {@link #dynamicLoadingNote} on {@code err} when the target runs Java 21 or later. */
    static void noteDynamicLoading(VirtualMachine vm, String jar, PrintStream err) {
        int feature = featureVersion(vm);
        if (feature >= 21) {
            err.println(dynamicLoadingNote(feature, jar));
        }
    }

    static VirtualMachine attach(String pid) throws Failure {
        try {
            return VirtualMachine.attach(pid);
        } catch (AttachNotSupportedException | IOException e) {
            throw new Failure("cannot attach to process " + pid + ": " + e.getMessage()
                    + " (is it a running JVM of the same user?)");
        }
    }

    static void load(VirtualMachine vm, String pid, String jar, String options) throws Failure {
        try {
            vm.loadAgent(jar, options);
        } catch (AgentLoadException | AgentInitializationException | IOException e) {
            int feature = featureVersion(vm);
            throw new Failure("cannot load the agent into process " + pid + ": " + e
                    + (feature >= 21 ? "\n" + dynamicLoadingNote(feature, jar) : ""));
        }
    }

    /** Runs one agent command in the target and returns its JSON answer. */
    static String command(String pid, String command, PrintStream err) throws Failure {
        String jar = agentJar();
        VirtualMachine vm = attach(checkPid(pid));
        Path reply = null;
        try {
            noteDynamicLoading(vm, jar, err);
            reply = Files.createTempFile("spool-reply-", ".json");
            load(vm, pid, jar, "spool.command=" + command + ",spool.reply=" + reply.toAbsolutePath());
            String answer = Files.readString(reply, StandardCharsets.UTF_8).trim();
            if (answer.isEmpty()) {
                throw new Failure("process " + pid + " gave no answer to '" + command + "'");
            }
            return answer;
        } catch (IOException e) {
            throw new Failure("cannot exchange the reply file with process " + pid + ": " + e);
        } finally {
            detach(vm);
            if (reply != null) {
                try {
                    Files.deleteIfExists(reply);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
        }
    }

    static void detach(VirtualMachine vm) {
        try {
            vm.detach();
        } catch (IOException ignored) {
            // the target went away: nothing to release
        }
    }
}
