package dev.spool.agent.internal;

import dev.spool.internal.config.SpoolConfig;
import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * The one installer behind {@code premain} and {@code agentmain}, in this order:
 * <ol>
 *   <li>configuration ({@link SpoolConfig}: agent args &gt; system properties &gt; environment
 *       &gt; file), each problem one {@code [spool]} line; {@code spool.enabled=false} stops here;
 *   <li>the boot bridge: its classes are defined in the boot loader ({@link BootBridge}, class data
 *       sharing stays on); only if the JDK refuses is the agent jar appended to the boot class
 *       path (HotSpot then prints its CDS warning). {@code dev.spool.bridge.Hooks} must resolve
 *       from the boot loader — checked before any
 *       class is transformed, because woven code referring to a missing bridge class would throw
 *       {@code NoClassDefFoundError} inside the host's own code;
 *   <li>{@link Wiring}: hooks published, classes transformed.
 * </ol>
 * Nothing here touches java.util.logging's LogManager or the platform MBean server; the MBeans are
 * registered later from a background thread ({@link Wiring}).
 */
public final class Installer {

    static final String BRIDGE_CLASS = "dev.spool.bridge.Hooks";

    private Installer() {}

    /** Called reflectively by {@code dev.spool.agent.SpoolAgent}; never throws. */
    public static void install(Instrumentation inst, String agentArgs, boolean dynamic, File agentJar) {
        long start = System.nanoTime();
        try {
            List<String> problems = new ArrayList<>();
            SpoolConfig config = SpoolConfig.load(agentArgs, SpoolConfig.systemProperties(), System.getenv(), problems::add);
            AgentLog.level(config.logLevel());
            for (String p : problems) {
                AgentLog.once(p, p);
            }
            if (!config.enabled()) {
                AgentLog.debug("spool.enabled=false: nothing installed");
                return;
            }
            if (!appendBridge(inst, agentJar)) {
                return;
            }
            Wiring.install(inst, config, agentJar, dynamic);
            AgentLog.debug("installed in " + (System.nanoTime() - start) / 1_000_000 + " ms");
        } catch (Throwable t) {
            AgentLog.log(AgentLog.Level.ERROR, "agent not installed, the application runs without it: " + t);
        }
    }

    /**
     * Puts the bridge into the boot loader ({@link BootBridge}; falls back to appending the agent
     * jar to the boot class path) and checks that it resolves there.
     */
    static boolean appendBridge(Instrumentation inst, File agentJar) {
        try (JarFile jar = new JarFile(agentJar, false)) {
            BootBridge.defineInBootLoader(inst, jar);
            AgentLog.debug("boot bridge defined in the boot loader; class data sharing untouched");
        } catch (Throwable notDefined) {
            try {
                inst.appendToBootstrapClassLoaderSearch(new JarFile(agentJar, false));
                AgentLog.debug("boot bridge not definable directly (" + notDefined + "); agent jar appended to the boot class path");
            } catch (Exception | LinkageError e) {
                // reported by the check below
            }
        }
        try {
            Class.forName(BRIDGE_CLASS, true, null);
            Class.forName("dev.spool.bridge.SpoolHooks", false, null);
            return true;
        } catch (Exception | LinkageError e) {
            AgentLog.log(AgentLog.Level.ERROR, "the boot bridge (" + BRIDGE_CLASS + ") is not on the boot class path ("
                    + e + "): nothing instrumented, the application runs without the agent");
            return false;
        }
    }
}
