package dev.spool.cli;

import dev.spool.agent.kafka.KafkaJar;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.util.List;

/**
 * {@code ship --bootstrap HOST:PORT [--topic T] FILE...}: ships event files to Kafka, each from
 * its checkpoint. The work is done by {@code dev.spool.kafka.ShipTool} in {@code spool-kafka.jar}
 * (beside the agent jar, or named by {@code -Dspool.kafka.jar=PATH}), loaded only for this command.
 */
final class ShipCommand implements Command {
    static final String TOOL = "dev.spool.kafka.ShipTool";

    @Override
    public String name() {
        return "ship";
    }

    @Override
    public String usage() {
        return "--bootstrap HOST:PORT [--topic T] [--timeout S] [--set K=V]... <file>...   ship event files to Kafka"
                + " from their checkpoints; exit 0 once all is acknowledged";
    }

    @Override
    @SuppressWarnings("unchecked")
    public int run(List<String> args, PrintStream out, PrintStream err) {
        ClassLoader loader;
        try {
            loader = KafkaJar.open(KafkaJar.locate(System.getProperty("spool.kafka.jar")));
        } catch (IOException e) {
            err.println("spool ship: " + e.getMessage());
            return SpoolCli.USAGE;
        }
        Thread me = Thread.currentThread();
        ClassLoader before = me.getContextClassLoader();
        me.setContextClassLoader(loader);
        try {
            Object code = loader.loadClass(TOOL).getMethod("run", List.class, PrintStream.class, PrintStream.class)
                    .invoke(null, args, out, err);
            return (Integer) code;
        } catch (InvocationTargetException e) {
            err.println("spool ship: " + e.getCause());
            return SpoolCli.USAGE;
        } catch (ReflectiveOperationException | LinkageError e) {
            err.println("spool ship: " + KafkaJar.JAR_NAME + " does not match this agent (" + e + ")");
            return SpoolCli.USAGE;
        } finally {
            me.setContextClassLoader(before);
        }
    }
}
