package dev.spool.agent;

import dev.spool.agent.boot.AgentClassLoader;
import java.io.File;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * {@code Premain-Class} and {@code Agent-Class}: a thin launcher. It finds its own jar, opens the
 * isolated {@link AgentClassLoader} over it and hands over to the installer inside. Whatever
 * fails, it prints one {@code [spool]} line to stderr and returns: the application runs
 * uninstrumented.
 *
 * <p>An {@code agentmain} whose arguments hold {@code spool.command=...} does not install: it
 * asks the already installed agent (through the boot bridge) and writes the answer to the file
 * named by {@code spool.reply=...}. That is how the CLI's {@code status} and {@code flush} reach a
 * running JVM.
 */
public final class SpoolAgent {

    static final String COMMAND = "spool.command=";
    static final String REPLY = "spool.reply=";

    private SpoolAgent() {}

    public static void premain(String args, Instrumentation inst) {
        start(args, inst, false);
    }

    public static void agentmain(String args, Instrumentation inst) {
        if (args != null && args.contains(COMMAND)) {
            command(args);
            return;
        }
        start(args, inst, true);
    }

    private static void start(String args, Instrumentation inst, boolean dynamic) {
        try {
            if (bridgeInstalled()) {
                System.err.println("[spool] agent already installed in this JVM; nothing to do");
                return;
            }
            File jar = new File(SpoolAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            AgentClassLoader loader = new AgentClassLoader(jar);
            loader.loadClass("dev.spool.agent.internal.Installer")
                    .getMethod("install", Instrumentation.class, String.class, boolean.class, File.class)
                    .invoke(null, inst, args, dynamic, jar);
        } catch (InvocationTargetException e) {
            System.err.println("[spool] agent not installed, the application runs without it: " + e.getCause());
        } catch (Throwable t) {
            System.err.println("[spool] agent not installed, the application runs without it: " + t);
        }
    }

    private static boolean bridgeInstalled() {
        try {
            Class<?> hooks = Class.forName("dev.spool.bridge.Hooks", false, null);
            return (Boolean) hooks.getMethod("installed").invoke(null);
        } catch (ClassNotFoundException e) {
            return false;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    @SuppressWarnings("unchecked")
    private static void command(String args) {
        String command = null;
        String reply = null;
        for (String item : args.split(",")) {
            if (item.startsWith(COMMAND)) {
                command = item.substring(COMMAND.length());
            } else if (item.startsWith(REPLY)) {
                reply = item.substring(REPLY.length());
            }
        }
        String answer;
        try {
            Class<?> hooks = Class.forName("dev.spool.bridge.Hooks", true, null);
            Function<String, String> handler = (Function<String, String>) hooks.getMethod("commands").invoke(null);
            answer = handler == null ? "{\"installed\":false}" : handler.apply(command);
        } catch (ClassNotFoundException e) {
            answer = "{\"installed\":false}";
        } catch (Throwable t) {
            answer = "{\"installed\":true,\"error\":\"" + String.valueOf(t).replace("\"", "'") + "\"}";
        }
        if (reply == null) {
            System.err.println("[spool] " + answer);
            return;
        }
        try {
            Files.write(Path.of(reply), answer.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            System.err.println("[spool] cannot write the command reply to " + reply + ": " + e);
        }
    }
}
