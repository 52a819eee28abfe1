from protopress.cli import main

main()
