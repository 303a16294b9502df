console.log('host placeholder');
