package dev.spool.agent.internal;

import java.io.File;
import java.util.List;
import java.util.jar.JarFile;

/**
 * Loads, off the host's threads, the agent's classes that the first intercepted calls would
 * otherwise load on them: every class of the runtime's {@code dev.spool.buffer}, {@code sink} and
 * {@code events} packages is loaded and linked ({@code Class.forName} without initialisation),
 * and, when emitter methods are configured, the event encoder is initialised (no file, no thread,
 * no host class is touched). Spool's own Jackson is not warmed: the encoder needs it only for
 * values without a codec of their own (records, POJOs, enums, dates), and loading it (about 375
 * classes) competed with the host's own start-up for the CPU; the first such event loads it on
 * its thread, once. Run once, on a
 * daemon thread that {@link LazyTransformer} starts when the first target class appears (a host
 * that never loads one pays nothing); no class load ever waits for it.
 * Failures are ignored: the real calls load what they need and report their own problems.
 */
final class Warmup {

    private static final String[] PACKAGES = {"dev/spool/buffer/", "dev/spool/sink/", "dev/spool/events/"};
    private static final String ENCODER = "dev.spool.events.EventEncoder";

    private Warmup() {}

    static void run(File agentJar, boolean events) {
        ClassLoader loader = Warmup.class.getClassLoader();
        try {
            if (events) {
                Class.forName(ENCODER, true, loader);
            }
            for (String name : runtimeClasses(agentJar)) {
                Class.forName(name, false, loader);
            }
        } catch (Exception | LinkageError ignored) {
            // only time is at stake
        }
    }

    /** The runtime classes to load: the build's index, or the jar's hidden classes in {@link #PACKAGES}. */
    private static List<String> runtimeClasses(File agentJar) throws java.io.IOException {
        try (JarFile jar = new JarFile(agentJar, false)) {
            return AgentJarIndex.classes(jar, AgentJarIndex.WARMUP, Warmup::runtimeClassOf);
        }
    }

    /** The class a hidden entry ({@code inst/<name>.classdata}) holds if it is in {@link #PACKAGES}, else null. */
    static String runtimeClassOf(String entry) {
        String suffix = ".classdata";
        if (!entry.startsWith("inst/") || !entry.endsWith(suffix) || entry.contains("package-info")) {
            return null;
        }
        String path = entry.substring("inst/".length(), entry.length() - suffix.length());
        for (String p : PACKAGES) {
            if (path.startsWith(p)) {
                return path.replace('/', '.');
            }
        }
        return null;
    }
}
