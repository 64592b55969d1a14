module github.com/acme/usersvc

go 1.22
