package dev.spool.agent.host;

import java.lang.reflect.Modifier;
import java.util.logging.FileHandler;
import java.util.logging.LogRecord;

/**
 * Test host: prints whether JUL's {@code FileHandler.publish} is declared {@code synchronized} in
 * this JVM ({@code publish synchronized=<true|false>}). Java 17 declares it so; the agent's weaver
 * removes the modifier (and takes the monitor itself, after its hook) only when it weaves the class
 * as it loads; a retransformation cannot change modifiers. Usage: {@code JulWeavingHost}.
 */
public final class JulWeavingHost {

    public static void main(String[] args) throws Exception {
        int modifiers = FileHandler.class.getMethod("publish", LogRecord.class).getModifiers();
        System.out.println("publish synchronized=" + Modifier.isSynchronized(modifiers));
    }
}
