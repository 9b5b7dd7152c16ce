package dev.spool.agent.boot;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * {@code Main-Class} of the agent jar: runs the CLI ({@code dev.spool.cli.SpoolCli}) inside the
 * same isolated class loader the agent uses, because the CLI needs Spool's hidden runtime.
 */
public final class SpoolMain {

    private SpoolMain() {}

    public static void main(String[] args) throws Throwable {
        File jar;
        try {
            jar = new File(SpoolMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (RuntimeException e) {
            System.err.println("spool: cannot locate the agent jar: " + e);
            System.exit(2);
            return;
        }
        AgentClassLoader loader = new AgentClassLoader(jar);
        Thread.currentThread().setContextClassLoader(loader);
        Method main = loader.loadClass("dev.spool.cli.SpoolCli").getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
