import CVLayoutCLI
import Foundation

signal(SIGPIPE, SIG_IGN)
exit(runFromProcess())
