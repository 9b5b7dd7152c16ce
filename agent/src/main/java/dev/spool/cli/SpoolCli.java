package dev.spool.cli;
// LOCAL SCAFFOLD, NEVER COMMIT (the sink helper owns SpoolCli)
import java.util.Arrays;
import java.util.List;
public final class SpoolCli {
  public static void main(String[] a) {
    List<String> rest = Arrays.asList(a).subList(1, a.length);
    int rc;
    switch (a[0]) {
      case "attach": rc = AttachCommand.run(rest, System.out, System.err); break;
      case "status": rc = StatusCommand.run(rest, System.out, System.err); break;
      case "flush": rc = FlushCommand.run(rest, System.out, System.err); break;
      default: rc = 2;
    }
    System.exit(rc);
  }
}
